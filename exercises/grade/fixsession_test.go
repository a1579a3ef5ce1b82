package grade

// fixSession404Cases are the fix-session-404 programs TestGolden grades.
func fixSession404Cases() []gradeCase {
	return []gradeCase{
		{"fix-session-404", "solution", "../../solutions/fix-session-404", "", ""},
		{"fix-session-404", "starter", "../fix-session-404", "answers an unknown session with 404", hintSession404},
		{"fix-session-404", "delete-keeps-session", "", "ends a session on DELETE", hintSessionDelete},
	}
}
