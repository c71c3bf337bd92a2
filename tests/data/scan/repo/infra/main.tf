resource "aws_bedrock_inference_profile" "chat" {
  name = "chat"
  model_source {
    copy_from = "anthropic.claude-3-sonnet-20240229-v1:0"
  }
}

variable "model_id" {
  default = "us.anthropic.claude-3-5-sonnet-20241022-v2:0" # claude-3-haiku-20240307 in a comment
}
