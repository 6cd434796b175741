"""Extensions, created here and bound to the app in ``create_app``."""

from flask_babel import Babel
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect

babel = Babel()
csrf = CSRFProtect()
# Pages travel compressed: a phone on a weak table-side connection loads the game in ~25 KB.
compress = Compress()
