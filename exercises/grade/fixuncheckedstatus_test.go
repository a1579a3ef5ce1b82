package grade

// fixUncheckedStatusCases are the fix-unchecked-status programs
// TestGolden grades.
func fixUncheckedStatusCases() []gradeCase {
	return []gradeCase{
		{"fix-unchecked-status", "solution", "../../solutions/fix-unchecked-status", "", ""},
		{"fix-unchecked-status", "starter", "../fix-unchecked-status", "reports an error status", hintCheckStatus},
		{"fix-unchecked-status", "ignores-unmarshal-error", "", "reports an answer that is not JSON", hintUnmarshalErr},
	}
}
