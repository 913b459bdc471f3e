package main

// modelCmd is `vaultctx model pull|info`.
type modelCmd struct {
	Pull modelPullCmd `cmd:"" help:"Download a Model2Vec model from the Hugging Face hub."`
	Info modelInfoCmd `cmd:"" help:"Describe a model directory."`
}

// modelPullCmd is `vaultctx model pull`.
type modelPullCmd struct{}

// Run executes the command.
func (c *modelPullCmd) Run(g *globals) error { return errNotYet("model pull") }

// modelInfoCmd is `vaultctx model info`.
type modelInfoCmd struct{}

// Run executes the command.
func (c *modelInfoCmd) Run(g *globals) error { return errNotYet("model info") }
