package grade

// a2aClientCases are the a2a-client programs TestGolden grades.
func a2aClientCases() []gradeCase {
	return nil
}
