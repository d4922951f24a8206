"""HTTP: views, forms, what pages show, and the app's headers and limits."""
