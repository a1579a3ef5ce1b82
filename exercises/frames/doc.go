// Package frames grades the frame exercises: the ones done by typing
// messages in the playground's wire console. A check reads the session's
// transcript, the events the playground recorded as the messages crossed
// the wire, and says for each step of the exercise whether it shows.
package frames
