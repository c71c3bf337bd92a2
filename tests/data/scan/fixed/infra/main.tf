resource "aws_bedrock_inference_profile" "chat" {
  name = "chat"
  model_source {
    copy_from = "anthropic.claude-sonnet-4-5-20250929-v1:0"
  }
}

variable "model_id" {
  default = "us.anthropic.claude-sonnet-4-5-20250929-v1:0" # claude-3-haiku-20240307 in a comment
}
