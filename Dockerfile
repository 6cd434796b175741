# scorekeeper: the Canasta scorekeeper, served by waitress on port 8000.
#   docker build -t scorekeeper .
#   docker run -p 8000:8000 -v scorekeeper-data:/data scorekeeper
# The SQLite database (and the instance secret) live in the /data volume; for PostgreSQL run
# with -e SCOREKEEPER_DATABASE_URL=postgresql+psycopg://user:password@host/dbname.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY . /app

# Compile the translation catalogues at build time: the app folder is read-only at run time.
# The instance folder (per-installation secret) points into the volume so it survives updates.
RUN pip install -e '.[postgres]' \
 && python -c "from scorekeeper import ROOT; from scorekeeper.web.catalogs import ensure_compiled; ensure_compiled(ROOT)" \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home scorekeeper \
 && mkdir -p /data/instance \
 && rm -rf /app/instance \
 && ln -s /data/instance /app/instance \
 && chown -R scorekeeper:scorekeeper /data

ENV SCOREKEEPER_DATABASE_URL=sqlite:////data/scorekeeper.sqlite3
VOLUME /data
USER scorekeeper
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/v1/rulesets', timeout=4)"]

CMD ["scorekeeper", "serve", "--host", "0.0.0.0", "--port", "8000"]
