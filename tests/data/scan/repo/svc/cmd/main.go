package main

import "fmt"

const bedrockModel = "us.anthropic.claude-3-5-sonnet-20241022-v2:0"
const vertexModel = `claude-3-5-sonnet-v2@20241022`

func main() {
	fmt.Println("model:", bedrockModel, "claude-sonnet-4-20250514")
}
