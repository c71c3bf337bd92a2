from typing import Dict

DEPRECATED_MODELS: Dict[str, str] = {
    "claude-3-haiku-20240307": "December 1st, 2025",
    "claude-sonnet-4-5": "December 31st, 2026",
}
