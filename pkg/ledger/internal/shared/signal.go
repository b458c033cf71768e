package shared

// Signal wakes the goroutine waiting on c (a channel of capacity 1)
// without blocking: a signal already pending covers this one.
func Signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default: // already signalled
	}
}
