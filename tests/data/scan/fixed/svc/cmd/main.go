package main

import "fmt"

const bedrockModel = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
const vertexModel = `claude-sonnet-4@20250514`

func main() {
	fmt.Println("model:", bedrockModel, "claude-sonnet-4-20250514")
}
