"""The phone page: Flask app factory, blueprints, templates, vendored static
assets, JSON API, server-sent events. Talks to the table only through the
service interface in device (never to OpenCV or the camera)."""
