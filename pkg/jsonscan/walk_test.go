package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
)

// The tests compare the Scanner with encoding/json: a document the Scanner accepts must be one encoding/json
// accepts, and the values it reads must be the ones encoding/json decodes. tree builds a value the way
// json.Decoder with UseNumber does, through the Scanner's public methods only.

// number is a number as the Scanner read it: its value, or that it does not fit a float64.
type number struct {
	v      float64
	finite bool
}

// tree reads one value into maps, slices, strings, bools, nil and numbers, as json.Unmarshal into an any
// would: a repeated member keeps the last value, and each byte of a string that is not UTF-8 becomes U+FFFD
// (converting to runes does that). ok is false after a syntax error.
func tree(s *Scanner) (v any, ok bool) {
	switch s.Kind() {
	case Object:
		s.Enter()
		m := map[string]any{}
		for first := true; s.Next('}', first); first = false {
			name := string([]rune(string(s.MemberName())))
			m[name], _ = tree(s)
		}
		v = m
	case Array:
		s.Enter()
		a := []any{}
		for first := true; s.Next(']', first); first = false {
			item, _ := tree(s)
			a = append(a, item)
		}
		v = a
	case String:
		v = string([]rune(string(s.ReadString())))
	case Number:
		f, finite := s.ReadNumber()
		v = number{f, finite}
	case Bool:
		v = s.ReadBool()
	case Null:
		s.Skip()
	}
	return v, !s.Failed()
}

// document reads data as one JSON document with tree, requiring that nothing but whitespace follows.
func document(data []byte) (any, *SyntaxError) {
	s := New(data)
	v, ok := tree(&s)
	if ok && !s.AtEnd() {
		s.Fail("unexpected data after the value")
	}
	return v, s.Err()
}

// reference decodes data with encoding/json, numbers as json.Number, and turns it into what tree returns.
func reference(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the value (%v)", err)
	}
	return normalize(v), nil
}

// normalize turns each json.Number into a number.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = normalize(x)
		}
	case []any:
		for i, x := range v {
			v[i] = normalize(x)
		}
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsInf(f, 0) {
			return number{0, false}
		}
		return number{f, true}
	}
	return v
}

// sameAsReference reports whether the Scanner and encoding/json agree on data: both refuse it, or both accept it
// and read the same values. It says how they differ otherwise.
func sameAsReference(data []byte) (bool, string) {
	got, serr := document(data)
	want, err := reference(data)
	switch {
	case serr != nil && err != nil:
		return true, ""
	case serr != nil:
		return false, fmt.Sprintf("Scanner refused what encoding/json accepts: %v", serr)
	case err != nil:
		return false, fmt.Sprintf("Scanner accepted what encoding/json refuses: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		return false, fmt.Sprintf("read %#v, encoding/json %#v", got, want)
	}
	return true, ""
}
