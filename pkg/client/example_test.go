package client_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mapsco/maps/pkg/client"
)

// Directions from Andorra la Vella to Pas de la Casa by car, through a live
// mapd (mapdURL, apiKey: see TestMain).
func Example() {
	c, err := client.NewClientWithResponses(mapdURL+"/v1", client.WithKey(apiKey))
	if err != nil {
		log.Fatal(err)
	}
	car, alternatives := client.Car, 0
	resp, err := c.GetDirectionsWithResponse(context.Background(), nil, client.DirectionsRequest{
		Coordinates:  []client.Coordinate{{1.5218, 42.5063}, {1.7333, 42.5425}},
		Profile:      &car,
		Alternatives: &alternatives,
	})
	if err != nil {
		log.Fatal(err)
	}
	if resp.JSON200 == nil {
		log.Fatalf("%s: %s", resp.Status(), resp.Body)
	}
	best := resp.JSON200.Routes[0].Summary
	fmt.Printf("%.0f km in %.0f minutes for %d credit\n", best.DistanceM/1000, best.DurationS/60, resp.JSON200.CreditsCharged)
	// Output: 27 km in 32 minutes for 1 credit
}

// A matrix whose second source has a typo in its latitude (142.5425): the
// answer is a 400 problem (RFC 9457), typed, naming the field.
func ExampleClientWithResponses_GetMatrixWithResponse() {
	c, err := client.NewClientWithResponses(mapdURL+"/v1", client.WithKey(apiKey))
	if err != nil {
		log.Fatal(err)
	}
	resp, err := c.GetMatrixWithResponse(context.Background(), nil, client.MatrixRequest{
		Sources: []client.Coordinate{{1.5218, 42.5063}, {1.7333, 142.5425}},
		Targets: []client.Coordinate{{1.7333, 42.5425}},
	})
	if err != nil {
		log.Fatal(err)
	}
	if p := resp.ApplicationproblemJSON400; p != nil {
		fmt.Println(resp.StatusCode(), p.Title)
		for _, e := range p.Errors {
			fmt.Println(e.Field)
		}
	}
	// Output:
	// 400 Invalid request
	// /sources/1/1
}
