package profile_test

import (
	"fmt"
	"log"

	"github.com/mapsco/maps/pkg/profile"
)

func Example() {
	profiles, err := profile.LoadDir("../../profiles")
	if err != nil {
		log.Fatal(err)
	}
	street := map[string]string{"highway": "residential", "oneway": "yes", "maxspeed": "20"}
	for _, p := range profiles {
		w := p.Way(street)
		fmt.Printf("%-17s forward %v %.1f km/h, backward %v %.1f km/h\n", p.Name, w.Forward, w.SpeedForward, w.Backward, w.SpeedBackward)
	}
	// Output:
	// moto              forward true 18.0 km/h, backward false 0.0 km/h
	// car               forward true 18.0 km/h, backward false 0.0 km/h
	// truck             forward true 18.0 km/h, backward false 0.0 km/h
	// bicycle           forward true 16.0 km/h, backward true 4.5 km/h
	// pedestrian        forward true 5.0 km/h, backward true 5.0 km/h
	// pedestrian_loaded forward true 4.0 km/h, backward true 4.0 km/h
}
