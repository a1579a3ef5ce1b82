package chapters

import "embed"

// FS holds the lessons, en/NN-slug.md and ru/NN-slug.md.
//
//go:embed en/*.md ru/*.md
var FS embed.FS
