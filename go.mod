module github.com/wirelab/wirelab

go 1.26.0

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/text v0.14.0
)

require (
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
