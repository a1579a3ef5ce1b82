package grade

// grpcServerCases are the grpc-server programs TestGolden grades.
func grpcServerCases() []gradeCase {
	return nil
}
