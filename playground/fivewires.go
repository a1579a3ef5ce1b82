package playground

import "net/http"

// mountFiveWires serves the five-wires page.
func mountFiveWires(mux *http.ServeMux, t Targets) {}
