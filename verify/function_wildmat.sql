-- Verify voyager:function_wildmat on pg (runs the server's Python)
DO $$
BEGIN
    ASSERT voyager.wildmat('alt.binaries.*,!*.d', 'alt.binaries.boneless');
    ASSERT NOT voyager.wildmat('alt.binaries.*,!*.d', 'alt.binaries.boneless.d');
    ASSERT voyager.date_curve_interpolate('{1,3}', '{10,30}', '{2}') = '{20}';
END $$;
