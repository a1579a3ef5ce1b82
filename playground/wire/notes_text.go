package wire

import (
	"fmt"
	"net/http"

	"golang.org/x/text/language"
)

// lang is the language a tab's page is written in, and so the language
// of the notes and refusals its session sends: "en" or "ru".
type lang string

const (
	langEN lang = "en"
	langRU lang = "ru"
)

// PageLang is the language a request asks for, "en" or "ru", by the
// pages' rule, which package playground's pages follow too: ?lang= on
// the URL, else the "lang" cookie the pages set (a websocket's upgrade
// request carries it, for the page is of the same origin), else the
// browser's preference (Accept-Language), else English. A page adds
// ?lang= to /ws itself (static/wire.js): an embedded lesson shown in
// Russian sets no cookie.
func PageLang(r *http.Request) string { return string(langOf(r)) }

// langOf is PageLang.
func langOf(r *http.Request) lang {
	if l, ok := parseLang(r.URL.Query().Get("lang")); ok {
		return l
	}
	if ck, err := r.Cookie("lang"); err == nil {
		if l, ok := parseLang(ck.Value); ok {
			return l
		}
	}
	return browserLang(r.Header.Get("Accept-Language"))
}

// browserLang is the language a browser prefers of the two, from its
// Accept-Language ("ru-RU,ru;q=0.9,en;q=0.8"), weights and all; English
// when it prefers neither.
func browserLang(accept string) lang {
	tags, _, err := language.ParseAcceptLanguage(accept)
	if err != nil || len(tags) == 0 {
		return langEN
	}
	// A matcher is made per call, rather than kept in a package
	// variable: a request asks once (a page as it renders, a tab as it
	// connects), and making one costs little beside that.
	_, i, confidence := language.NewMatcher([]language.Tag{language.English, language.Russian}).Match(tags...)
	if i == 1 && confidence != language.No {
		return langRU
	}
	return langEN
}

func parseLang(s string) (lang, bool) {
	switch l := lang(s); l {
	case langEN, langRU:
		return l, true
	}
	return "", false
}

// A notice is something the playground says to a tab: a note beside the
// traffic, or why a frame was refused. It is an error too, so that what
// runs an exchange can return it without knowing the tab's language; the
// session words it in its own (session.explain). Its Error is English,
// for whoever else reads it (a log, a test, an error wrapped around it).
type notice struct {
	key  noteKey
	args []any
}

// say makes the notice key with its arguments.
func say(key noteKey, args ...any) *notice { return &notice{key: key, args: args} }

func (n *notice) Error() string { return n.in(langEN) }

// in words the notice in l.
func (n *notice) in(l lang) string {
	w := wordingOf(n.key)
	format := w.en
	if l == langRU {
		format = w.ru
	}
	// A notice may say another ("reading the body: stopped after 1m0s"):
	// that one is worded in l too.
	args := make([]any, len(n.args))
	for i, a := range n.args {
		if inner, ok := a.(*notice); ok {
			a = inner.in(l)
		}
		args[i] = a
	}
	return fmt.Sprintf(format, args...)
}

// noteKey names one thing the playground says.
type noteKey int

// The things the playground says, in the order of the wording below.
const (
	// Refusals of a frame (session.go).
	noteTooFast noteKey = iota
	noteFrameTooLong
	noteUnknownOp
	noteUnknownTarget
	noteExchangesOpen
	// gRPC connections forgotten by a restart (session.go, custom_grpc.go).
	noteGRPCRestart
	noteCustomGRPCRestart
	// A custom-grpc "to", and the files it names (custom_grpc.go).
	noteGRPCNeedsValue
	noteGRPCUnknownOption
	noteGRPCProtoOrProtoset
	noteGRPCCertAndKey
	noteGRPCOneUpload
	noteGRPCNoCA
	noteGRPCReadingCA
	noteGRPCNoPEM
	noteGRPCNoClientCert
	noteGRPCReadingClientCert
	noteGRPCNoDescriptors
	noteGRPCOneProto
	// An HTTP exchange (exchange.go).
	noteNoServer
	noteNotHTTP
	noteRequestLine
	noteNoColon
	noteAddedHost
	noteAddedLength
	noteFixedLength
	noteSending
	noteHeadTooLong
	noteReadingAnswer
	noteReadingBody
	noteStoppedAfter
	noteReadFailed
	noteAnswerComplete
	// A child process (child.go).
	noteNoExecutable
	noteLocalOnly
	noteSessionOver
	noteTooManyChildren
	noteNotReading
	noteLineTooLong
	noteStoppedBecause
	noteStopped
	noteExited
	noteStderrTail
	noteStartsAgain
	// The upgrade refused (hub.go): a page cannot read these, but a
	// developer's tools and curl can.
	noteForeignOrigin
	noteTooManyTabs

	// gRPC calls (grpc.go).
	noteGRPCCall
	noteGRPCTimeout
	noteBytesHint
	// Custom targets, and what their "to" says (custom.go, custom_http.go).
	noteCustomLocalOnly
	noteCustomNeedsTo
	noteExampleStdio
	noteExampleHTTP
	noteExampleGRPC
	noteExampleOther
	noteToTooLong
	noteCustomNoRestart
	noteGRPCAddr
	noteCouldNotStart
	noteTrailingBackslash
	noteUnbalancedSingle
	noteUnbalancedDouble
	noteEmptyCommand
	noteHTTPNeeds
	noteHTTPNeedsGot
	noteHTTPOnlyCACert
	noteHTTPCACertPlain
	noteConnecting
	// TLS with a learner's server (custom_http.go, custom_grpc_tls.go).
	noteTLSHTTPS
	noteTrustsSystem
	noteTrustsMachine
	noteTrustsCA
	noteTrustsPasted
	noteClientCertIn
	noteClientCertPasted
	noteCommonNameOnly
	noteVerbatim
	noteAdviceHTTPUnknown
	noteAdviceHTTPName
	noteAdviceHTTPPlain
	noteAdviceGRPCUnknown
	noteAdviceGRPCName
	noteAdviceGRPCPlain
	noteUnnamedAuthority
	noteTLSUnknown
	noteTLSWrongName
	noteTLSInvalid
	noteTLSNotTLS
	noteTLSRefused
	noteTLSFailed
	notePlaintextH2C
	noteTLSTo
	noteTLSState
	noteMutual
	noteSpeaksTLS
	noteNoPrefaceAnswer
	noteServerAlert
	noteAskedThenClosed
	noteClientCertRefused
	noteNoClientCertNone
	noteNoClientCertUnsigned
	// Presenting and following (presenter.go, watch.go, audience.go).
	notePresentLocal
	noteStateTooLong
	noteStateNotObject
	noteNotPresenting
	noteWatching
	noteFollowing
	noteWatchedEnded
	// A follower refused before its websocket opens (watch.go,
	// audience.go), and a session that cannot be exported (export.go):
	// a page cannot read these, but a developer's tools and curl can.
	noteNoSessionWatch
	noteNoSessionEnded
	noteNoSessionExport
	noteCannotWatch
	noteShuttingDown
	noteTooManyWatchers
	noteTooManyFollowers

	noteKeys // how many there are: not a note
)

// wording is one note in both languages: format strings for fmt, with the
// same verbs in the same order. Protocol words, header names, numbers,
// exit statuses and Go's own errors stay as they are in either.
type wording struct{ en, ru string }

// wordingOf returns the wording of key. static/doctor.js and
// static/custom.js read some of these in the text that reaches the page
// ("stopped after", "was stopped", the stderr tail): a change there
// needs a change there.
func wordingOf(key noteKey) wording {
	switch key {
	case noteTooFast:
		return wording{
			"too many frames: at most %g a second; wait a moment",
			"слишком много кадров: не больше %g в секунду; подождите немного"}
	case noteFrameTooLong:
		return wording{
			"the frame is %d bytes; at most %d are sent",
			"в кадре %d байт; отправляется не больше %d"}
	case noteUnknownOp:
		return wording{
			`unknown op %q: the page sends "send" or "restart"`,
			`неизвестная операция %q: страница отправляет "send" или "restart"`}
	case noteUnknownTarget:
		return wording{
			"unknown target %q: the targets are %s",
			"неизвестная цель %q: цели — %s"}
	case noteExchangesOpen:
		return wording{
			"%d exchanges are still open; wait for one to end (streams end after %v)",
			"ещё открыты обмены (%d); дождитесь, пока один закончится (поток закрывается через %v)"}
	case noteGRPCRestart:
		return wording{
			"the connection to %s is closed; the next call opens a new one and asks reflection again",
			"соединение с %s закрыто; следующий вызов откроет новое и снова спросит reflection"}
	case noteCustomGRPCRestart:
		return wording{
			"the connection to %s is closed; the next call opens a new one and reads the descriptors again",
			"соединение с %s закрыто; следующий вызов откроет новое и заново прочитает дескрипторы"}
	case noteGRPCNeedsValue:
		return wording{
			"custom-grpc: %s needs a value",
			"custom-grpc: у %s нет значения"}
	case noteGRPCUnknownOption:
		return wording{
			"custom-grpc: unknown option %q; after host:port come -plaintext (the default), -tls, -cacert FILE, -cert FILE, -key FILE, -servername NAME, -proto FILE, -protoset FILE, -import-path DIR",
			"custom-grpc: неизвестный параметр %q; после host:port идут -plaintext (по умолчанию), -tls, -cacert FILE, -cert FILE, -key FILE, -servername NAME, -proto FILE, -protoset FILE, -import-path DIR"}
	case noteGRPCProtoOrProtoset:
		return wording{
			"custom-grpc: give -proto or -protoset, not both",
			"custom-grpc: укажите -proto или -protoset, но не оба"}
	case noteGRPCCertAndKey:
		return wording{
			"custom-grpc: give -cert and -key together: the client certificate and its private key (PEM)",
			"custom-grpc: -cert и -key указываются вместе: сертификат клиента и его закрытый ключ (PEM)"}
	case noteGRPCOneUpload:
		return wording{
			"custom-grpc: a pasted client certificate is one upload holding the certificate and its key: -cert %s -key %s",
			"custom-grpc: вставленный сертификат клиента — одна загрузка, в которой и сертификат, и ключ: -cert %s -key %s"}
	case noteGRPCNoCA:
		return wording{
			"custom-grpc: no CA %s is held (the playground forgets uploads when it restarts); paste the CA again",
			"custom-grpc: CA %s не найден (после перезапуска песочница забывает загрузки); вставьте CA ещё раз"}
	case noteGRPCReadingCA:
		return wording{
			"custom-grpc: reading the CA file: %v",
			"custom-grpc: чтение файла CA: %v"}
	case noteGRPCNoPEM:
		return wording{
			"custom-grpc: %s holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
			"custom-grpc: в %s нет сертификата PEM (-----BEGIN CERTIFICATE-----)"}
	case noteGRPCNoClientCert:
		return wording{
			"custom-grpc: no client certificate %s is held (the playground forgets uploads when it restarts); paste the certificate and its key again",
			"custom-grpc: сертификат клиента %s не найден (после перезапуска песочница забывает загрузки); вставьте сертификат и ключ ещё раз"}
	case noteGRPCReadingClientCert:
		return wording{
			"custom-grpc: reading the client certificate (-cert %s -key %s): %v",
			"custom-grpc: чтение сертификата клиента (-cert %s -key %s): %v"}
	case noteGRPCNoDescriptors:
		return wording{
			"custom-grpc: no descriptors %s are held (the playground forgets uploads when it restarts); upload the .proto or protoset again",
			"custom-grpc: дескрипторы %s не найдены (после перезапуска песочница забывает загрузки); загрузите .proto или protoset ещё раз"}
	case noteGRPCOneProto:
		return wording{
			"custom-grpc: give one -proto (its imports are found beside it, or under -import-path), or upload the files together",
			"custom-grpc: укажите один -proto (его импорты ищутся рядом с ним или в -import-path) или загрузите файлы вместе"}
	case noteNoServer:
		return wording{
			"no %s server runs in this playground",
			"в этой песочнице не запущен сервер %s"}
	case noteNotHTTP:
		return wording{
			"not an HTTP request: %v",
			"это не запрос HTTP: %v"}
	case noteRequestLine:
		return wording{
			`an HTTP frame starts with a request line such as "POST /mcp HTTP/1.1"`,
			`кадр HTTP начинается со строки запроса, например "POST /mcp HTTP/1.1"`}
	case noteNoColon:
		return wording{
			"header line %q has no colon",
			"в строке заголовка %q нет двоеточия"}
	case noteAddedHost:
		return wording{
			"added Host: %s (HTTP/1.1 requires it)",
			"добавлен Host: %s (его требует HTTP/1.1)"}
	case noteAddedLength:
		return wording{
			"added Content-Length: %d, the body's length",
			"добавлен Content-Length: %d, длина тела"}
	case noteFixedLength:
		return wording{
			"Content-Length was %s; the body is %s bytes, so it was set to %s",
			"Content-Length был %s; в теле %s байт, поэтому он заменён на %s"}
	case noteSending:
		return wording{
			"sending: %v",
			"отправка: %v"}
	case noteHeadTooLong:
		return wording{
			"reading the answer: its head passed %d KiB without the empty line that ends it; wirelab reads no more of a head than that",
			"чтение ответа: заголовки заняли больше %d КиБ, а пустой строки, которой они кончаются, всё нет; больше wirelab не читает"}
	case noteReadingAnswer:
		return wording{
			"reading the answer",
			"чтение ответа"}
	case noteReadingBody:
		return wording{
			"reading the body",
			"чтение тела"}
	case noteStoppedAfter:
		return wording{
			"%s: stopped after %v (a stream stays open until the server ends it)",
			"%s: остановлено через %v (поток открыт, пока сервер его не закончит)"}
	case noteReadFailed:
		return wording{
			"%s: %v",
			"%s: %v"}
	case noteAnswerComplete:
		return wording{
			"the answer is complete",
			"ответ получен целиком"}
	case noteNoExecutable:
		return wording{
			"this playground cannot start %s servers: it does not know where the wirelab binary is",
			"эта песочница не может запускать серверы %s: она не знает, где лежит программа wirelab"}
	case noteLocalOnly:
		return wording{
			"stdio servers run only for pages opened on this machine",
			"серверы stdio запускаются только для страниц, открытых на этой машине"}
	case noteSessionOver:
		return wording{
			"the session is over",
			"сессия закончилась"}
	case noteTooManyChildren:
		return wording{
			"too many server processes are running (at most %d); close a tab or restart one",
			"запущено слишком много процессов-серверов (не больше %d); закройте вкладку или перезапустите один из них"}
	case noteNotReading:
		return wording{
			"the server is not reading its stdin; restart it",
			"сервер не читает свой stdin; перезапустите его"}
	case noteLineTooLong:
		return wording{
			"it wrote a line longer than %d bytes, more than one message may be",
			"он написал строку длиннее %d байт, больше, чем может быть одно сообщение"}
	case noteStoppedBecause:
		return wording{
			"the server was stopped: %s (%s)",
			"сервер остановлен: %s (%s)"}
	case noteStopped:
		return wording{
			"the server was stopped (%s)",
			"сервер остановлен (%s)"}
	case noteExited:
		return wording{
			"the server's stdout closed: it exited (%s)",
			"stdout сервера закрылся: сервер завершился (%s)"}
	case noteStderrTail:
		return wording{
			"; the last of its stderr:\n",
			"; последние строки его stderr:\n"}
	case noteStartsAgain:
		return wording{
			"\nthe next frame starts it again",
			"\nследующий кадр запустит его снова"}
	case noteForeignOrigin:
		return wording{
			"websocket refused: the page must come from this machine (Origin was %q)",
			"websocket отклонён: страница должна быть с этой машины (Origin был %q)"}
	case noteTooManyTabs:
		return wording{
			"too many playground tabs are open (at most %d); close one and reload",
			"открыто слишком много вкладок песочницы (не больше %d); закройте одну и перезагрузите страницу"}
	case noteGRPCCall:
		return wording{
			"gRPC call: %v",
			"вызов gRPC: %v"}
	case noteGRPCTimeout:
		return wording{
			"grpc-timeout %q: gRPC writes a deadline as up to 8 digits and a unit, H, M, S, m, u or n, such as 50m for 50 milliseconds",
			"grpc-timeout %q: gRPC записывает срок как не больше 8 цифр и единицу, H, M, S, m, u или n, например 50m — это 50 миллисекунд"}
	case noteBytesHint:
		return wording{
			`%v. A bytes field takes base64 text in ProtoJSON ("aGVsbG8=" is hello); the console turns a JSON object or array typed there into its bytes, base64-encoded, before it sends`,
			`%v. Поле bytes в ProtoJSON принимает текст base64 ("aGVsbG8=" — это hello); объект или массив JSON, набранный в таком поле, консоль перед отправкой превращает в байты и кодирует в base64`}
	case noteCustomLocalOnly:
		return wording{
			"%s runs only for pages opened on this machine: this one came from elsewhere",
			"%s работает только для страниц, открытых на этой машине, а эта открыта с другой"}
	case noteCustomNeedsTo:
		return wording{
			`%s needs "to": %s`,
			`для %s нужен "to": %s`}
	case noteExampleStdio:
		return wording{
			`the command line that starts your server, such as "python3 my_server.py"`,
			`командная строка, которая запускает ваш сервер, например "python3 my_server.py"`}
	case noteExampleHTTP:
		return wording{
			`your server's URL, such as "http://127.0.0.1:9000/mcp" or "https://mcp.example.com/mcp" (then perhaps -cacert FILE)`,
			`URL вашего сервера, например "http://127.0.0.1:9000/mcp" или "https://mcp.example.com/mcp" (и, возможно, -cacert FILE после него)`}
	case noteExampleGRPC:
		return wording{
			`your server's host:port, such as "127.0.0.1:9000", and how to reach it, such as "localhost:9443 -cacert ca.pem -proto api.proto"`,
			`host:port вашего сервера, например "127.0.0.1:9000", и как к нему подключаться, например "localhost:9443 -cacert ca.pem -proto api.proto"`}
	case noteExampleOther:
		return wording{
			"where your server is",
			"где находится ваш сервер"}
	case noteToTooLong:
		return wording{
			`"to" is %d bytes; at most %d are taken`,
			`в "to" %d байт; принимается не больше %d`}
	case noteCustomNoRestart:
		return wording{
			"only stdio servers restart, and gRPC connections; %s has no process or connection of ours to restart",
			"перезапускаются только серверы stdio и соединения gRPC; у %s нет нашего процесса или соединения, которое можно перезапустить"}
	case noteGRPCAddr:
		return wording{
			"custom-grpc needs %s (host:port with no scheme: -tls asks for TLS), got %q",
			"для custom-grpc нужен %s (host:port без схемы: TLS включает -tls), а получено %q"}
	case noteCouldNotStart:
		return wording{
			"custom-stdio: could not start %q: %v",
			"custom-stdio: не удалось запустить %q: %v"}
	case noteTrailingBackslash:
		return wording{
			"the command line ends with a backslash, which escapes nothing: %q",
			"командная строка кончается обратной косой чертой, которая ничего не экранирует: %q"}
	case noteUnbalancedSingle:
		return wording{
			"unbalanced single quote at byte %d of the command line: %q",
			"непарная одинарная кавычка в байте %d командной строки: %q"}
	case noteUnbalancedDouble:
		return wording{
			"unbalanced double quote at byte %d of the command line: %q",
			"непарная двойная кавычка в байте %d командной строки: %q"}
	case noteEmptyCommand:
		return wording{
			"the command line is empty",
			"командная строка пуста"}
	case noteHTTPNeeds:
		return wording{
			"custom-http needs %s",
			"для custom-http нужен %s"}
	case noteHTTPNeedsGot:
		return wording{
			"custom-http needs %s, got %q",
			"для custom-http нужен %s, а получено %q"}
	case noteHTTPOnlyCACert:
		return wording{
			"custom-http: after the URL comes only -cacert FILE (the CA that signed an https server's certificate), got %q",
			"custom-http: после URL может идти только -cacert FILE (CA, подписавший сертификат сервера https), а получено %q"}
	case noteHTTPCACertPlain:
		return wording{
			"custom-http: -cacert is for an https:// URL; %s is plain http",
			"custom-http: -cacert нужен для URL https://, а %s — обычный http"}
	case noteConnecting:
		return wording{
			"connecting to %s: %v",
			"соединение с %s: %v"}
	case noteTLSHTTPS:
		return wording{
			"TLS %s with %s: the certificate for %s, issued by %q, verified by %s. The bytes below are those inside TLS, in plaintext, as written into the connection and read out of it",
			"TLS %s с %s: сертификат для %s, выданный %q, проверен по %s. Ниже — байты внутри TLS, открытым текстом, как они записаны в соединение и прочитаны из него"}
	// What verifies a server's certificate, and which certificate the
	// client presents: Russian puts the first after «по» (the dative).
	case noteTrustsSystem:
		return wording{
			"the system roots",
			"системным корневым сертификатам"}
	case noteTrustsMachine:
		return wording{
			"this machine's system roots",
			"системным корневым сертификатам этой машины"}
	case noteTrustsCA:
		return wording{
			"the CA in %s",
			"CA из %s"}
	case noteTrustsPasted:
		return wording{
			"the CA pasted on the page (%s)",
			"CA, вставленному на странице (%s)"}
	case noteClientCertIn:
		return wording{
			"the client certificate in %s",
			"сертификат клиента из %s"}
	case noteClientCertPasted:
		return wording{
			"the client certificate pasted on the page (%s)",
			"сертификат клиента, вставленный на странице (%s)"}
	case noteCommonNameOnly:
		return wording{
			"%q (a common name only, which clients no longer accept as a host name)",
			"%q (только common name, которое клиенты больше не принимают за имя хоста)"}
	case noteVerbatim:
		// Names, addresses and the like, the same in either language.
		return wording{"%s", "%s"}
	case noteAdviceHTTPUnknown:
		return wording{
			"name the CA that signed it after the URL: -cacert FILE",
			"укажите после URL CA, который его подписал: -cacert FILE"}
	case noteAdviceHTTPName:
		return wording{
			"use one of its names in the URL",
			"укажите в URL одно из его имён"}
	case noteAdviceHTTPPlain:
		return wording{
			"it serves plain HTTP, so use http://",
			"он отвечает по обычному HTTP, поэтому используйте http://"}
	case noteAdviceGRPCUnknown:
		return wording{
			"give the CA certificate that signed it: a CA file on this machine, or its PEM pasted",
			"укажите сертификат CA, который его подписал: файл CA на этой машине или вставленный PEM"}
	case noteAdviceGRPCName:
		return wording{
			"connect by one of its names, or set the server name to verify (-servername) to one of them",
			"подключайтесь по одному из его имён или задайте одно из них как имя сервера для проверки (-servername)"}
	case noteAdviceGRPCPlain:
		return wording{
			"a plaintext server: choose plaintext",
			"сервер без шифрования: выберите plaintext"}
	case noteUnnamedAuthority:
		return wording{
			"an unnamed authority",
			"безымянным удостоверяющим центром"}
	case noteTLSUnknown:
		return wording{
			"TLS with %s: its certificate is signed by %s, which %s does not trust (unknown authority); %s",
			"TLS с %s: его сертификат подписан %s, а проверка по %s этому центру не доверяет (неизвестный удостоверяющий центр); %s"}
	case noteTLSWrongName:
		return wording{
			"TLS with %s: its certificate is for %s, not for %q (wrong name); %s",
			"TLS с %s: его сертификат выдан для %s, а не для %q (чужое имя); %s"}
	case noteTLSInvalid:
		return wording{
			"TLS with %s: its certificate is not valid: %v",
			"TLS с %s: его сертификат недействителен: %v"}
	case noteTLSNotTLS:
		return wording{
			"TLS with %s: the server does not speak TLS (its first bytes are not a TLS record); %s",
			"TLS с %s: сервер не поддерживает TLS (его первые байты — не запись TLS); %s"}
	case noteTLSRefused:
		return wording{
			"TLS with %s: the server refused the handshake (%v); a server that wants a client certificate (mutual TLS) refuses this way, and the console sends none",
			"TLS с %s: сервер отказался от рукопожатия (%v); так отказывает сервер, которому нужен сертификат клиента (взаимный TLS), а консоль его не отправляет"}
	case noteTLSFailed:
		return wording{
			"TLS handshake with %s failed: %v",
			"рукопожатие TLS с %s не удалось: %v"}
	case notePlaintextH2C:
		return wording{
			"plaintext HTTP/2 (h2c) to %s: nothing is encrypted, and the server is not authenticated",
			"HTTP/2 без шифрования (h2c) к %s: ничего не зашифровано, и подлинность сервера не проверяется"}
	case noteTLSTo:
		return wording{
			"TLS to %s, verified against %s%s",
			"TLS к %s, проверка по %s%s"}
	case noteTLSState:
		return wording{
			"%s (%s) to %s: the server's certificate for %s, issued by %q, is verified against %s%s",
			"%s (%s) к %s: сертификат сервера для %s, выданный %q, проверен по %s%s"}
	case noteMutual:
		return wording{
			"; this side presents %s (mutual TLS)",
			"; эта сторона предъявляет %s (взаимный TLS)"}
	case noteSpeaksTLS:
		return wording{
			"the server at %s speaks TLS: it answered the plaintext HTTP/2 preface with a TLS record (% x). Choose TLS (the system roots, or the CA that signed its certificate)",
			"сервер %s работает по TLS: на преамбулу HTTP/2 без шифрования он ответил записью TLS (% x). Выберите TLS (системные корневые сертификаты или CA, подписавший его сертификат)"}
	case noteNoPrefaceAnswer:
		return wording{
			"the server at %s closed the connection without answering the HTTP/2 preface (%v). A TLS server does that to a plaintext client: if it serves TLS, choose TLS",
			"сервер %s закрыл соединение, не ответив на преамбулу HTTP/2 (%v). Так сервер TLS поступает с клиентом без шифрования: если он работает по TLS, выберите TLS"}
	case noteServerAlert:
		return wording{
			"the server's alert: %s",
			"предупреждение (alert) сервера: %s"}
	case noteAskedThenClosed:
		return wording{
			"it asked for one, then closed the connection",
			"он запросил сертификат, а потом закрыл соединение"}
	case noteClientCertRefused:
		return wording{
			"TLS with %s: the server refused the client certificate, %s (the server's alert: %s): give one signed by a CA the server trusts, still valid, and for client authentication",
			"TLS с %s: сервер отверг сертификат клиента — %s (предупреждение (alert) сервера: %s): укажите сертификат, подписанный CA, которому сервер доверяет, ещё действительный и предназначенный для аутентификации клиента"}
	case noteNoClientCertNone:
		return wording{
			"TLS with %s: the server wants a client certificate (mutual TLS), and this side sent no client certificate (%s); give one with its private key: -cert FILE -key FILE, or paste both",
			"TLS с %s: серверу нужен сертификат клиента (взаимный TLS), а эта сторона не отправила сертификат клиента (%s); укажите его вместе с закрытым ключом: -cert FILE -key FILE, или вставьте оба"}
	case noteNoClientCertUnsigned:
		return wording{
			"TLS with %s: the server wants a client certificate (mutual TLS), and this side sent no client certificate: %s is not signed by an authority the server asks for (%s); give one its CA signed",
			"TLS с %s: серверу нужен сертификат клиента (взаимный TLS), а эта сторона не отправила сертификат клиента: %s не подписан центром, которого просит сервер (%s); укажите сертификат, подписанный его CA"}
	case notePresentLocal:
		return wording{
			"only a tab on the instructor's machine can present",
			"вести показ может только вкладка на машине преподавателя"}
	case noteStateTooLong:
		return wording{
			"the page's state is %d bytes; at most %d are relayed",
			"состояние страницы занимает %d байт; передаётся не больше %d"}
	case noteStateNotObject:
		return wording{
			`the page's state is a JSON object: {"op":"state","state":{...}}`,
			`состояние страницы — объект JSON: {"op":"state","state":{...}}`}
	case noteNotPresenting:
		return wording{
			`this tab does not present: send {"op":"present"} first`,
			`эта вкладка не ведущая: сначала отправьте {"op":"present"}`}
	case noteWatching:
		return wording{
			"this tab is watching session %s; it cannot send",
			"эта вкладка наблюдает за сессией %s; отправлять из неё нельзя"}
	case noteFollowing:
		return wording{
			"this tab follows the presenter; it cannot send",
			"эта вкладка следит за ведущим; отправлять из неё нельзя"}
	case noteWatchedEnded:
		return wording{
			"the session you were watching ended",
			"сессия, за которой вы наблюдали, закончилась"}
	case noteNoSessionWatch:
		return wording{
			"no session %q to watch: it has ended, or the id is mistyped (a tab learns its id from the playground's hello)",
			"нет сессии %q, за которой можно наблюдать: она закончилась, или в id опечатка (вкладка узнаёт свой id из hello песочницы)"}
	case noteNoSessionEnded:
		return wording{
			"no session %q to watch: it has ended",
			"нет сессии %q, за которой можно наблюдать: она закончилась"}
	case noteNoSessionExport:
		return wording{
			"no session %q to export: it has ended, or the id is mistyped",
			"нет сессии %q для экспорта: она закончилась, или в id опечатка"}
	case noteCannotWatch:
		return wording{
			"cannot watch: %v",
			"наблюдать нельзя: %v"}
	case noteShuttingDown:
		return wording{
			"the playground is shutting down",
			"песочница завершает работу"}
	case noteTooManyWatchers:
		return wording{
			"the session already has %d watchers, the most it may have",
			"за сессией уже наблюдают %d вкладок, больше нельзя"}
	case noteTooManyFollowers:
		return wording{
			"%d tabs already follow the presenter here, the most there may be",
			"за ведущим здесь уже следят %d вкладок, больше нельзя"}
	}
	panic(fmt.Sprintf("playground: note %d has no wording", key))
}
