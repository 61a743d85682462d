// The /api/ page: Redoc (bundled with django-ninja) draws the schema the code generates.
const element = document.getElementById("redoc-ui");
window.Redoc.init(element.dataset.schema, { expandResponses: "200", hideLoading: true, disableSearch: false }, element);
