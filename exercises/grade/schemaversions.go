package grade

// SchemaVersions grades the schema-versions exercise. (Placeholder: its stages are being written.)
func SchemaVersions() *Grader {
	return &Grader{Exercise: "schema-versions"}
}
