package mevapi

import "strings"

// ContentCodings lists, lower-cased and in order, the content codings other
// than identity in every value of a (possibly repeated, comma-separated)
// Content-Encoding header: none for a plain body. Every value counts, not
// only the first, so a body cannot pass as plain behind an "identity".
func ContentCodings(values []string) []string {
	var codings []string
	for _, v := range values {
		for _, c := range strings.Split(v, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	return codings
}
