"""Extensions, created here and bound to the app in ``create_app``."""

from flask_babel import Babel
from flask_compress import Compress

from .signing import Csrf

babel = Babel()
csrf = Csrf()  # Flask-WTF's CSRFProtect, its tokens signed by a kept serializer
# Pages travel compressed: a phone on a weak table-side connection loads the game in ~25 KB.
compress = Compress()
