package grade

// schemaVersionsCases are the schema-versions programs TestGolden grades.
func schemaVersionsCases() []gradeCase {
	return nil
}
