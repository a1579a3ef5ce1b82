package grade

// A2AClient grades the a2a-client exercise. (Placeholder: its stages are being written.)
func A2AClient() *Grader {
	return &Grader{Exercise: "a2a-client"}
}
