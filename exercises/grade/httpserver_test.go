package grade

// httpServerCases are the http-server programs TestGolden grades.
func httpServerCases() []gradeCase {
	return nil
}
