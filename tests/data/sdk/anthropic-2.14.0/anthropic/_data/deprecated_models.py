from typing import Dict

DEPRECATED_MODELS: Dict[str, str] = {
    "claude-3-5-sonnet-20241022": "October 22nd, 2099",
    "claude-sonnet-4-5": "November 30th, 2026",
    "claude-sonnet-4-5-20250929": "November 30th, 2026",
    "claude-opus-9": "January 22nd, 2027",
}
