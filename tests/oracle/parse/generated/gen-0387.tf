null /* c */ {
} null /* c */ {
} null = /* c */ - -( 1 /* c */ )
