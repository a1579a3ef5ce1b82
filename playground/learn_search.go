package playground

import (
	"fmt"

	"github.com/wirelab/wirelab/playground/course"
)

// searchEntry is one place search can lead to: a lesson's opening text
// (ID "") or one of its sections. The course map carries every entry of
// its language in the page (learnSearch), and static/search.js searches
// them as the learner types, without asking the server anything.
type searchEntry struct {
	Lesson  string `json:"lesson"`  // the lesson's slug
	Title   string `json:"title"`   // "07 · Talk to an MCP server by hand"
	ID      string `json:"id"`      // the section's anchor; "" for the lesson's top
	Heading string `json:"heading"` // the section's heading; "" for the lesson's top
	Text    string `json:"text"`    // its words, without code
}

// searchIndex lists every section of the lessons of one language, in the
// course's order.
func searchIndex(lessons []course.Lesson) []searchEntry {
	var out []searchEntry
	for i := range lessons {
		ls := &lessons[i]
		title := fmt.Sprintf("%s · %s", number(ls), ls.Title)
		for _, s := range ls.Sections {
			text := s.Text
			if s.ID == "" && ls.Intro != nil {
				for _, g := range ls.Intro.Goals {
					text += " " + stripTags(g)
				}
			}
			out = append(out, searchEntry{Lesson: ls.Slug, Title: title, ID: s.ID, Heading: s.Heading, Text: text})
		}
	}
	return out
}

// searchText is the search box's strings, for the script.
type searchText struct {
	Label     string `json:"-"`
	Hint      string `json:"-"`
	Results   string `json:"results"`   // "%d places"
	NoResults string `json:"noResults"` // nothing matched
}

func searchStrings(l lang) searchText {
	if l == ru {
		return searchText{
			Label:     "Поиск по урокам",
			Hint:      "Слова из заголовков и текста, например «трейлер» или «PKCE»",
			Results:   "Найдено мест: %d",
			NoResults: "Ничего не нашлось.",
		}
	}
	return searchText{
		Label:     "Search the lessons",
		Hint:      "Words from headings and text, such as \"trailer\" or \"PKCE\"",
		Results:   "%d places found",
		NoResults: "Nothing found.",
	}
}
