// Package static holds the playground's browser assets (stylesheets,
// scripts, images), embedded in the binary so that wirelab runs from any
// directory and makes no request outside this machine.
package static

import "embed"

// FS holds every asset, served by the playground under /static/.
//
//go:embed *.css *.js
var FS embed.FS
