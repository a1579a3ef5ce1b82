package grade

// grpcServerCases are the grpc-server programs TestGolden grades.
func grpcServerCases() []gradeCase {
	return []gradeCase{
		{"grpc-server", "solution", "../../solutions/grpc-server", "", ""},
		{"grpc-server", "starter", "../grpc-server", "lists its tools", ""},
		{"grpc-server", "capital-metadata-key", "", "lists its tools", hintGRPCMetadataKey},
		{"grpc-server", "no-bearer-prefix", "", "lists its tools", hintGRPCBearer},
		{"grpc-server", "trim-prefix", "", "refuses calls without a valid token", hintGRPCTrimPrefix},
		{"grpc-server", "plain-errors", "", "reports bad calls with the right codes", hintGRPCPlainError},
		{"grpc-server", "unauthenticated-for-scope", "", "deploys with the right scope", hintGRPCAuthCodes},
		{"grpc-server", "ignores-deadline", "", "stops work when the deadline passes", hintGRPCDeadline},
	}
}
