package playground

import (
	"github.com/wirelab/wirelab/playground/course"
	"github.com/wirelab/wirelab/protocols/tools"
)

// toolDescriptionsRU are the catalogue's tool descriptions for a Russian
// page, keyed by the English the servers send. The wire keeps the
// English: a description is part of what tools/list answers.
var toolDescriptionsRU = map[string]string{
	"Count the words (whitespace-separated) and characters (Unicode code points) in a text.":                                 "Считает слова (разделённые пробельными символами) и символы (кодовые точки Unicode) в тексте.",
	"Search wirelab's short notes on tool protocols. Returns the best hits first.":                                           "Ищет по коротким заметкам wirelab о протоколах инструментов. Лучшие совпадения идут первыми.",
	"Deploy a service to staging or production (simulated). Reports progress; production needs the deploy:production scope.": "Развёртывает сервис в staging или production (понарошку). Сообщает о ходе работы; для production нужна область deploy:production.",
	"Current weather for a city, from an upstream forecast service (which is down: every call fails as a tool error).":       "Текущая погода в городе от вышестоящего сервиса прогнозов (он не работает: каждый вызов заканчивается ошибкой инструмента).",
}

// toolDescription is a tool's description in the page's language; the
// English, as the servers send it, where there is no translation.
func toolDescription(d tools.Definition, l lang) string {
	if ru, ok := toolDescriptionsRU[d.Description]; ok && l == course.Russian {
		return ru
	}
	return d.Description
}
