MODEL = "claude-3-sonnet-20240229"  # ignored by the repo's .gitignore
