def test_the_home_page_renders_in_chromium(new_page, shot):
    page = new_page()
    page.goto("/")
    assert page.locator("h1").first.inner_text().strip() != ""
    shot(page, "home")
    assert page.js_errors == []
