package grade

// GRPCServer grades the grpc-server exercise. (Placeholder: its stages are being written.)
func GRPCServer() *Grader {
	return &Grader{Exercise: "grpc-server"}
}
