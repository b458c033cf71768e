package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/release"
)

func newVerifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify DIR",
		Short: "Check every file size, SHA-256 and section checksum of a release",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := release.Resolve(args[0])
			if err != nil {
				return err
			}
			if err := release.Verify(dir); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", dir)
			return nil
		},
	}
}
