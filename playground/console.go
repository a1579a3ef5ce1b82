package playground

import "net/http"

// mountConsoles serves the wire consoles.
func mountConsoles(mux *http.ServeMux, t Targets) {}
