package textan

import "strings"

// StopWord reports whether w (lowercase) is on the search stop list:
// Lucene's English stop set (Apache Lucene EnglishAnalyzer
// ENGLISH_STOP_WORDS_SET, the list the BEIR BM25 baseline used) plus
// question words and auxiliaries common in prompts. The BM25 query builder
// drops these words unless nothing else remains.
func StopWord(w string) bool { return stopWords[w] }

// Filler reports whether w (lowercase) is a filler: a word that is not on
// the search stop list (StopWord) but carries no search intent of its own,
// such as further pronouns, auxiliaries and prepositions ("her", "while",
// "through") and the words of chat prompts ("yes", "ok", "go", "please",
// "thanks", "continue"). SearchableTerms drops both layers; see the package
// doc for why they are kept apart.
func Filler(w string) bool { return fillers[w] }

// stopWords is the search list of StopWord.
var stopWords = wordSet(`a an and are as at be but by for if in into is it no not of on or
	such that the their then there these they this to was will with
	what how why when where which who whom does do did can could should would i you we my me
	your our from about have has had am been being its it's so than too very just`)

// fillers is the list of Filler. With stopWords it makes up the classic
// English stop-word list plus chat fillers that the hooks have always
// gated on; no word of it is in stopWords.
var fillers = wordSet(`above after again against all any aren because before below between both
	cannot couldn didn doesn doing don down during each few further hadn hasn haven having he her
	here hers herself him himself his isn itself let more most myself nor off once only other ought ours
	ourselves out over own same shan she shouldn some theirs them themselves those through under
	until up wasn were weren while won wouldn yours yourself yourselves ll re ve im ive id youre
	thats theres whats lets also still even ever much many really quite maybe perhaps etc via per
	yes yeah yep yup nope ok okay k kk sure fine great good nice cool thanks thank thx ty please pls
	plz go ahead continue proceed next done right alright well hi hello hey now sounds lgtm agreed
	agree correct exactly got understood makes sense try retry keep going carry`)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
