package jsonscan_test

import (
	"fmt"

	"github.com/mapsco/maps/pkg/jsonscan"
)

// A decoder walks the document by its schema: here an object whose "point" is [longitude, latitude]. Every
// problem is reported at its pointer; a syntax error ends the walk and is reported instead.
func Example() {
	for _, body := range []string{
		`{"point": [1.5, 42.5]}`,
		`{"point": [1.5, "north"], "name": "x"}`,
		`{"point": [1.5, 42.5}`,
	} {
		s := jsonscan.New([]byte(body))
		var root jsonscan.Pointer
		var problems []string
		if s.Kind() == jsonscan.Object {
			s.Enter()
			for first := true; s.Next('}', first); first = false {
				name := string(s.MemberName())
				if name != "point" {
					problems = append(problems, root.Member(name).String()+": unknown member")
					s.Skip()
					continue
				}
				p := root.Member("point")
				if s.Kind() != jsonscan.Array {
					problems = append(problems, p.String()+": not an array")
					s.Skip()
					continue
				}
				s.Enter()
				for i, first := 0, true; s.Next(']', first); i, first = i+1, false {
					if k := s.Kind(); k != jsonscan.Number {
						problems = append(problems, fmt.Sprintf("%s: must be a number, got %s", p.Index(i), k))
						s.Skip()
						continue
					}
					s.ReadNumber()
				}
			}
		}
		if !s.Failed() && !s.AtEnd() {
			s.Fail("unexpected data after the object")
		}
		if err := s.Err(); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(problems)
	}
	// Output:
	// []
	// [/point/1: must be a number, got string /name: unknown member]
	// malformed JSON at byte 20: unexpected character '}', expecting ',' or ']'
}
