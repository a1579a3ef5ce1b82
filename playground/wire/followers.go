package wire

// A classroom spread over several playgrounds lists its followers on
// every dashboard: each playground tells the others who follows it, on
// the room's "followers" subject. What a message says is the classroom's
// business (package classroom); the hub only carries it, on its bus, so
// that it goes where the presenter's events go: nowhere beyond this
// process on the default bus, to every playground of the room on NATS.

// PublishFollowers sends msg, this playground's classroom followers, to
// the room's playgrounds, this one too. Like every Publish, it does not
// wait for them and may not deliver.
func (h *Hub) PublishFollowers(msg []byte) error {
	return h.bus.Publish(h.subject(subjectFollowers), msg)
}

// SubscribeFollowers calls handle with every message published on the
// room's followers subject, this playground's own too, until
// unsubscribe. handle must not block (Bus.Subscribe).
func (h *Hub) SubscribeFollowers(handle func(msg []byte)) (unsubscribe func(), err error) {
	return h.bus.Subscribe(h.subject(subjectFollowers), handle)
}
