package install

import _ "embed"

// SettingsTemplate is settings.json.tmpl: a text/template producing
// {"hooks": {...}} with one matcher group per event, executed by
// settings.Render with settings.TemplateData (absolute commands, written
// with the json function). Timeouts are in seconds, each at most 30.
//
//go:embed settings.json.tmpl
var SettingsTemplate []byte
