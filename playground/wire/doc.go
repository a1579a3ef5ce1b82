// Package wire is the playground's engine: it carries a browser tab's
// frames to live servers and every byte that comes back to the tab, as
// events. It knows nothing of pages, lessons or exercises, and imports no
// HTML or markdown; package playground builds the pages on top of it.
//
// # The pieces, and who owns what
//
//   - Hub (hub.go) accepts the websockets at ServeWS. It owns the registry
//     of sessions, the counts of tabs and child processes, and the work
//     Hold counts (a grade); Close ends all of it and waits. Its mu guards
//     those.
//   - session (session.go) is one tab. Its reader goroutine (run) owns
//     the tab's commands, in order; its writer (pump) owns the websocket's
//     writes. Both end when the tab goes or the hub closes (the session's
//     ctx). session.mu guards the tab's children.
//   - child (child.go) is a stdio server the tab started, for the stdio,
//     mcp-stdio and custom-stdio targets. A writer, a reader and a
//     supervisor goroutine serve it; the supervisor alone ends it, however
//     it ends, and releases its slot.
//   - An exchange (exchange.go) is one HTTP request or gRPC call, in a
//     goroutine of its own that ends at the answer, exchangeTimeout or the
//     session's end. A tab's gRPC connections (grpcClients) are kept
//     between its calls and closed when the session ends.
//   - Custom targets (custom.go) are the learner's own servers: a command
//     line, an http:// URL, a host:port.
//   - feed (watch.go) is the publish/subscribe seam: every event of a
//     session is published to it once, and it hands the event to the tab
//     and to every follower (another tab watching the session), keeping
//     the latest for late-comers and dropping whoever falls behind rather
//     than waiting. Its mu guards the ring and the followers; a follower's
//     writer ends with the session or the hub. Hub.Subscribe attaches a
//     follower that is not a websocket (a recorder, a relay to other
//     machines), whose channel closes after the session's last event.
//   - The room (presenter.go, audience.go, bus.go): one tab presents;
//     its feed also publishes each event, and the page state it sends,
//     on the room's Bus, numbered. Each hub's receiver turns what the
//     bus brings into its audience: the tabs that follow the presenter,
//     fed as a feed feeds followers, dropped rather than waited on. The
//     stage's mu (who presents) comes before the presenter's feed lock,
//     which comes before the receiver's and the audience's. NATSBus
//     (natsbus.go) is the bus shared by several playgrounds; FollowRemote
//     (relay.go) feeds a second audience from another playground's
//     websocket, in a loop that ends with its ctx or the hub.
//   - Taps (tap.go): a wirelab tap on this machine publishes its events
//     at /ws/tap (ServeTap), and each becomes a session "tap-N" that
//     tabs watch as they watch another tab; Publish is the tap's side.
//     The taps' registry has a lock of its own, taken alone.
//
// Limits and timeouts are named constants in hub.go, each with the
// message a learner sees when it is hit.
//
// # The websocket's messages
//
// The page talks to the engine over one websocket per browser tab:
// the tab sends frames, and the playground sends back every byte that
// crossed each wire, as events. The messages are JSON objects.
//
// Right after the upgrade, the playground greets the tab with the
// session's id, which another tab can use to watch it (below), and says
// whether the tab may start processes (stdio and custom targets): only a
// tab on this machine (a loopback peer) may.
//
//	{"op":"hello","session":"9f86d081884c7d659a2feaa0c55ad015","local":true,"watching":false}
//
// From the page:
//
//	{"op":"send","id":7,"target":"mcp-stdio","frame":"{\"jsonrpc\":\"2.0\",...}"}
//	{"op":"restart","target":"mcp-stdio"}   // a fresh child process
//
// A custom target is the learner's own server, named by "to":
//
//	{"op":"send","id":8,"target":"custom-stdio","to":"python3 my_server.py --flag 'a b'","frame":"..."}
//	{"op":"restart","target":"custom-stdio","to":"python3 my_server.py --flag 'a b'"}
//	{"op":"send","id":9,"target":"custom-http","to":"http://127.0.0.1:9000","frame":"POST /x HTTP/1.1\n..."}
//	{"op":"send","id":10,"target":"custom-grpc","to":"127.0.0.1:9000","frame":"pkg.Service/Method\n{...}"}
//
// custom-stdio starts the command line as a child process, one per
// distinct command line per tab, in the playground's working directory.
// The line is split into words as a POSIX shell splits them (blanks,
// 'single quotes', "double quotes", backslash escapes), but no shell
// runs: $VAR, ~, globs, pipes and redirections reach the program as
// they are. custom-http takes an http:// base URL (not https, yet), and
// custom-grpc a host:port. Only a tab on this machine may use them.
//
// To the page, one per piece of traffic, as it happens:
//
//	{"op":"event","id":7,"target":"mcp-stdio","dir":"out","kind":"line","at":"...","text":"...","size":83}
//	{"op":"event","target":"mcp-stdio","dir":"in","kind":"line",...}     // stdout of the child
//	{"op":"event","target":"mcp-stdio","dir":"err","kind":"stderr",...}  // stderr of the child
//	{"op":"event","id":8,"target":"http","dir":"in","kind":"http-head",...}
//	{"op":"event","target":"custom-stdio","to":"python3 my_server.py --flag 'a b'","dir":"in",...}
//	{"op":"error","id":9,"message":"..."}  // the playground refused the frame
//
// An HTTP answer comes as it crosses: "raw" events carry its bytes, and
// beside them "http-head" is its head, the status line and the header
// lines in the server's order (line ends made "\n"), and "http-body" its
// body without chunked framing. A gRPC call is a "grpc-call" event (the
// frame as typed, which has no size: it is not what crosses), then one
// "grpc" event whose "frames" are every HTTP/2 frame of the call, both
// ways, in the order they crossed, each with its direction ("out" from
// the playground's client), its type, its stream (absent for the
// connection's own) and its bytes, header included, in base64; "text"
// is their annotated account, and "size" the bytes the server sent:
//
//	{"op":"event","id":10,"target":"grpc","dir":"in","kind":"grpc","text":"call /tools.v1.ToolServer/ListTools on stream 1: OK (0)\n...","size":412,
//	 "frames":[{"dir":"out","type":"PREFACE","bytes":"UFJJICogSFRUUC8yLjANCg0KU00NCg0K"},{"dir":"out","type":"SETTINGS","bytes":"AAAABAAAAAAA"},...]}
//
// The client's connection preface, which opens a new connection, comes as
// a frame of type "PREFACE"; on a connection kept from an earlier call
// the frames begin where that call's ended. A frame past the first
// maxGRPCBytes of a call carries only what fits, and "cut" says how many
// bytes it left out.
//
// "out" is what the learner sent, "in" what came back. An event carries
// the id of the frame it answers when the playground knows it (HTTP and
// gRPC: one exchange per frame); on a stdio child, lines come as the
// server writes them, and the page matches JSON-RPC ids itself. An
// event of a custom target echoes its "to", so that the page can tell
// two custom servers apart.
//
// Watching: another tab, a teacher's projector say, may follow a session
// live by opening the websocket at /ws?watch=<session id>. It is greeted
// with
//
//	{"op":"hello","session":"9f86d081884c7d659a2feaa0c55ad015","local":false,"watching":true}
//
// ("local" is false: a follower starts nothing), then the session's
// latest events again (the last replayEvents, fewer if they pass
// replayBytes), then every new event and refusal of the session as it
// happens. It may not send: each of its commands is answered with
//
//	{"op":"error","id":3,"message":"this tab is watching session 9f86...; it cannot send"}
//
// When the session ends, the follower gets one last event and is closed:
//
//	{"op":"event","dir":"note","kind":"session-end","at":"...","text":"the session you were watching ended"}
//
// An unknown session id is answered 404 and a session with maxWatchers
// followers 503, both before the upgrade.
//
// # Presenting, and following the presenter
//
// A room has one presenter: a tab on this machine (a loopback peer)
// that asks
//
//	{"op":"present"}
//
// and is answered {"op":"present","on":true}. A later tab that asks
// takes over; the earlier one is told {"op":"present","on":false}, as is
// a tab that stops with
//
//	{"op":"present","on":false}
//
// A tab from another machine that asks is refused:
//
//	{"op":"error","message":"only a tab on the instructor's machine can present"}
//
// The presenter says where its page is, whenever that changes (a few
// times a second at most: each one counts against the frame rate):
//
//	{"op":"state","state":{"page":"/console/mcp","target":"mcp-stdio","to":"","frame":"...","row":3,"view":"pretty","frameIndex":-1,"lang":"en"}}
//
// The state is the page's own business, relayed as it is; it must be a
// JSON object of at most maxState (64 KiB) bytes, and come from the
// presenter, or it is refused with an "error".
//
// Any tab may follow whoever presents at /ws?watch=presenter. It is
// greeted with
//
//	{"op":"hello","session":"","local":false,"watching":true,"presenter":true}
//
// then told how things stand, and told again each time they change:
//
//	{"op":"status","status":"waiting"}                                      // nobody presents
//	{"op":"status","status":"live","session":"9f86d081884c7d659a2feaa0c55ad015"}
//	{"op":"status","status":"ended"}                                        // the presenter stopped or its tab closed; "waiting" follows
//
// After "live" come the presenter's events so far (its transcript, as a
// watcher of its session would get them), then its latest state, if it
// has sent one, as {"op":"state","state":{...}}, then its events and
// states as they happen. A new presenter is a new "live", followed by
// its own history: the page starts its transcript over at each "live".
// "live" may also come again for the same session, with its history
// anew, when this playground lost track of it (see the Bus).
//
// A follower that falls sendBuffer messages behind is dropped: the
// socket closes with code 1013 ("try again later") and the reason, if
// the writer can still say it, and the page reconnects to catch up. The
// presenter never waits for a follower. Whatever a follower sends is
// refused, as a watcher's is.
//
// # Following an instructor from one's own playground
//
// A student's own playground may relay the instructor's presenter
// (Hub.FollowRemote, for wirelab serve --follow): it opens the
// instructor's /ws?watch=presenter, with the student's follower cookie,
// and passes all it hears to the tabs of the student's playground that
// open /ws?watch=instructor. Those tabs get what a follower of the
// instructor's playground gets, greeted with
//
//	{"op":"hello","session":"instructor","local":false,"watching":true,"presenter":true}
//
// and, while the relay connects or after its connection broke, with
//
//	{"op":"status","status":"reconnecting","message":"lost the instructor's playground (...); trying again"}
//
// until the instructor's playground answers again with its own status
// ("live" and the history, or "waiting"). When the relay stops, they
// get {"op":"status","status":"ended"} and are closed. With no relay,
// ?watch=instructor is answered 404 before the upgrade.
//
// # Several playgrounds, one room: the Bus
//
// The presenter reaches its followers through a Bus (bus.go): publish a
// message on a subject, subscribe to one. The default is in-process; a
// NATSBus (HubOptions.Bus) lets playgrounds behind one load balancer
// share a room, a presenter on one and followers on all. The subjects
// of room R are:
//
//	wirelab.room.R.presenter        the presentation: live, event..., state..., ended
//	wirelab.room.R.history          "what has been presented so far?"
//	wirelab.room.R.inbox.<hub id>   the answer, to the hub that asked
//	wirelab.room.R.followers        each playground's classroom followers (followers.go)
//
// The followers subject is the classroom's, which the hub only carries
// (Hub.PublishFollowers, Hub.SubscribeFollowers): each classroom
// publishes a snapshot of its followers at a change and every ten
// seconds, so that a dashboard on any playground lists the whole room
// (package internal/classroom says what a snapshot holds).
//
// Each message is a JSON object, {"kind":"event","origin":"<hub id>",
// "session":"<presenter's session>","seq":7,"data":{...the event...}},
// numbered from 1 ("live") in each presentation. A tab that presents on
// one playground makes a presenter on another stop, when that one hears
// its "live".
//
// A playground that starts late, or whose subscription lost a message
// (core NATS delivers at most once, and drops a subscriber that falls
// far behind), sees a number missing or a session it never saw begin.
// It then asks on the history subject, holding what arrives meanwhile,
// and the presenter's playground answers from what it keeps for its own
// watchers anyway: "live", the kept events, the latest state, and "done"
// with the number they reach; the held messages past that number
// follow. Asking the presenter rather than replaying the subject keeps
// one copy of the history, bounded as a session's replay is, where the
// presenter already has it, and needs nothing of NATS beyond publish and
// subscribe: no stream to configure (JetStream), no second limit to
// keep in step with replayEvents. Its cost is that nobody answers when
// the presenter's playground is gone, and then its followers elsewhere
// wait for the next "live".
//
// A message larger than the NATS server's max_payload (an event may
// carry a 1 MiB frame) crosses in parts, which the NATSBus puts together.
package wire
