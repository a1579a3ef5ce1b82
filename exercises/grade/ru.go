package grade

// russianText is the Russian catalogue: every English phrase of the
// graders, keyed by its English as it stands in the source.
var russianText = map[string]string{}
