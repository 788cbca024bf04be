package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// readmeTemplateHeading is the README section whose shell block is the
// multi-instance template that -relays 2 runs.
const readmeTemplateHeading = "### Two relay instances on one PostgreSQL"

// templateFlags are the flags of the README's per-host gavel line, in the
// order the README writes them, and what the harness puts for each on its
// devnet. A flag the README adds or drops without a change here fails
// readTemplate (and so the run and TestReadmeTemplate).
var templateFlags = []string{"--mainnet", "--datadir", "--relay.secretkey", "--relay.beacon", "--store.url", "--mev.addr"}

// templateValues are an instance's values for the template's flags.
type templateValues struct {
	datadir, relayKey, beaconURL, storeURL, mevAddr string
}

// readTemplate reads the per-host gavel lines of the README's multi-instance
// block (lines starting with "gavel ", continued by a trailing backslash).
// Every host line must hold exactly templateFlags.
func readTemplate(readme string) ([][]string, error) {
	b, err := os.ReadFile(readme)
	if err != nil {
		return nil, err
	}
	text := string(b)
	i := strings.Index(text, readmeTemplateHeading)
	if i < 0 {
		return nil, fmt.Errorf("%s: no section %q (the multi-instance template -relays 2 runs)", readme, readmeTemplateHeading)
	}
	text = text[i:]
	start := strings.Index(text, "```sh\n")
	if start < 0 {
		return nil, fmt.Errorf("%s: section %q has no ```sh block", readme, readmeTemplateHeading)
	}
	text = text[start+len("```sh\n"):]
	end := strings.Index(text, "```")
	if end < 0 {
		return nil, fmt.Errorf("%s: section %q: unterminated ```sh block", readme, readmeTemplateHeading)
	}
	var hosts [][]string
	var cur string
	for _, line := range strings.Split(text[:end], "\n") {
		line = strings.TrimSpace(line)
		if cur != "" {
			cur += " " + strings.TrimSuffix(line, "\\")
		} else if strings.HasPrefix(line, "gavel ") {
			cur = strings.TrimSuffix(line, "\\")
		} else {
			continue
		}
		if !strings.HasSuffix(line, "\\") {
			hosts = append(hosts, strings.Fields(cur)[1:])
			cur = ""
		}
	}
	if len(hosts) < 2 {
		return nil, fmt.Errorf("%s: the template shows %d gavel lines, want one per host (at least 2)", readme, len(hosts))
	}
	for n, args := range hosts {
		var flags []string
		for _, a := range args {
			if strings.HasPrefix(a, "--") {
				flags = append(flags, a)
			}
		}
		if !slices.Equal(flags, templateFlags) {
			return nil, fmt.Errorf("%s: host line %d of the template has flags %v; the harness (build/interop/template.go) runs %v: change both together", readme, n+1, flags, templateFlags)
		}
	}
	return hosts, nil
}

// instanceArgs is a template host line with the devnet's values: the
// network flag is dropped (the datadir holds the devnet's genesis from
// `gavel init`) and every other flag takes v's value.
func instanceArgs(host []string, v templateValues) ([]string, error) {
	var out []string
	for i := 0; i < len(host); i++ {
		flag := host[i]
		if flag == "--mainnet" {
			continue
		}
		if i+1 >= len(host) || strings.HasPrefix(host[i+1], "--") {
			return nil, fmt.Errorf("template flag %s has no value", flag)
		}
		i++
		var val string
		switch flag {
		case "--datadir":
			val = v.datadir
		case "--relay.secretkey":
			val = v.relayKey
		case "--relay.beacon":
			val = v.beaconURL
		case "--store.url":
			val = v.storeURL
		case "--mev.addr":
			val = v.mevAddr
		default:
			return nil, fmt.Errorf("template flag %s: the harness has no devnet value for it", flag)
		}
		out = append(out, flag, val)
	}
	return out, nil
}
