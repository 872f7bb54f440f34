x1 /* c */ {
} null /* c */ {
} null = /* c */ - -( 1 /* c */ )
