package grade

// fixInitializedCases are the fix-initialized programs TestGolden grades.
func fixInitializedCases() []gradeCase {
	return []gradeCase{
		{"fix-initialized", "solution", "../../solutions/fix-initialized", "", ""},
		{"fix-initialized", "starter", "../fix-initialized", "sends notifications/initialized", hintFixInitialized},
		{"fix-initialized", "initialized-with-id", "", "sends notifications/initialized", hintMCPNoID},
	}
}
