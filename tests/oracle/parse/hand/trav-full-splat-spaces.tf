x = a[ * ].b
