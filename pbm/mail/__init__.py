"""Mail in and out: parsing, composing, and the IMAP, SMTP and pipe doors."""
