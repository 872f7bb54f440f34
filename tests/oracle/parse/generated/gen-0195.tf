null null null {}
