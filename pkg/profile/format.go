package profile

// The types in this file mirror the JSON profile format one to one (profiles/README.md is the reference). They
// are decoded with unknown fields rejected, then validated and compiled into a Profile by compile.go.

type fileProfile struct {
	Name              string                        `json:"name"`
	Doc               string                        `json:"doc"`
	SpeedModelVersion string                        `json:"speed_model_version"`
	SpeedModelStatus  string                        `json:"speed_model_status"`
	MaxSpeedKmh       float64                       `json:"max_speed_kmh"`
	Access            *fileAccess                   `json:"access"`
	Highways          map[string]fileHighway        `json:"highways"`
	Pushing           *filePushing                  `json:"pushing"`
	Oneway            *fileOneway                   `json:"oneway"`
	SpeedFactors      map[string]map[string]float64 `json:"speed_factors"`
	DenyTags          map[string][]string           `json:"deny_tags"`
	Maxspeed          *fileMaxspeed                 `json:"maxspeed"`
	Vehicle           *fileVehicle                  `json:"vehicle"`
	Barriers          *fileBarriers                 `json:"barriers"`
	Restrictions      *fileRestrictions             `json:"restrictions"`
	Ferry             *fileFerry                    `json:"ferry"`
	Grade             *Grade                        `json:"grade"`
	Turns             *Turns                        `json:"turns"`
}

type fileAccess struct {
	Tags         []string          `json:"tags"`
	ExplicitTags []string          `json:"explicit_tags"`
	Values       map[string]string `json:"values"`
}

type fileHighway struct {
	SpeedKmh            float64 `json:"speed_kmh"`
	NeedsExplicitAccess bool    `json:"needs_explicit_access"`
	UntaggedSpeedKmh    float64 `json:"untagged_speed_kmh"`
}

type filePushing struct {
	SpeedKmh      float64            `json:"speed_kmh"`
	Highways      map[string]float64 `json:"highways"`
	AgainstOneway []string           `json:"against_oneway"`
}

type fileOneway struct {
	Tags       []string            `json:"tags"`
	Implied    map[string][]string `json:"implied"`
	Exceptions map[string][]string `json:"exceptions"`
}

type fileMaxspeed struct {
	Tags         []string           `json:"tags"`
	Factor       float64            `json:"factor"`
	WalkKmh      float64            `json:"walk_kmh"`
	Implicit     map[string]float64 `json:"implicit"`
	ImplicitTags []string           `json:"implicit_tags"`
}

type fileVehicle struct {
	HeightM float64 `json:"height_m"`
	WidthM  float64 `json:"width_m"`
	LengthM float64 `json:"length_m"`
	WeightT float64 `json:"weight_t"`
}

type fileBarriers struct {
	Default string   `json:"default"`
	Block   []string `json:"block"`
	Pass    []string `json:"pass"`
}

type fileRestrictions struct {
	Modes  []string `json:"modes"`
	Plain  *bool    `json:"plain"`
	Except []string `json:"except"`
}

type fileFerry struct {
	SpeedKmh float64 `json:"speed_kmh"`
}
