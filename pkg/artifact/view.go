package artifact

import (
	"fmt"
	"unsafe"
)

// Fixed lists the element types a section may be viewed as.
type Fixed interface {
	~uint8 | ~int8 | ~uint16 | ~int16 | ~uint32 | ~int32 | ~uint64 | ~int64 | ~float32 | ~float64
}

// View returns b as a slice of T without copying. It fails when b's length
// is not a multiple of T's size or b is not aligned for T; sections written
// by Writer are 64-byte aligned, so that only happens on a corrupt file.
func View[T Fixed](b []byte) ([]T, error) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b)%size != 0 {
		return nil, fmt.Errorf("%w: section of %d bytes is not a whole number of %d-byte values", ErrCorrupt, len(b), size)
	}
	if len(b) == 0 {
		return []T{}, nil
	}
	if uintptr(unsafe.Pointer(&b[0]))%uintptr(unsafe.Alignof(zero)) != 0 {
		return nil, fmt.Errorf("%w: section is misaligned for %d-byte values", ErrCorrupt, size)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size), nil
}

// SectionView is File.Section followed by View.
func SectionView[T Fixed](f *File, name string) ([]T, error) {
	b, err := f.Section(name)
	if err != nil {
		return nil, err
	}
	v, err := View[T](b)
	if err != nil {
		return nil, fmt.Errorf("section %q: %w", name, err)
	}
	return v, nil
}
