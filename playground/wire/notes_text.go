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
	// variable: a tab asks once, when it connects.
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
	}
	panic(fmt.Sprintf("playground: note %d has no wording", key))
}
