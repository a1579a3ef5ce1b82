package grade

// HTTPServer grades the http-server exercise. (Placeholder: its stages are being written.)
func HTTPServer() *Grader {
	return &Grader{Exercise: "http-server"}
}
